"""References to articles the wiki does not have yet read the same way everywhere, and say so.

The articles cite companion articles by their series id (`K03`, `N03`). Until the wiki has such an
article, every mention in the prose is plain text followed by the marker of its language:
`K03 (kommende artikel om inferens)`, `K03 (article à venir sur l'inférence)`. A page of the wiki that
is one of them declares its id in its front matter (`article_id: K03`); mentions of it are then links,
not this checker's business.
"""

from __future__ import annotations

import re

from wiki.checks.finding import Finding
from wiki.checks.project import Project
from wiki.checks.prose import read
from wiki.checks.texts import prose_texts

NAME = "references"
ARTICLE_ID = re.compile(r"(?<![\w-])(?P<id>[KN]\d{2})(?!\d)")
MARKER = {"da": "(kommende artikel", "fr": "(article à venir"}
EXAMPLE = {"da": "{id} (kommende artikel om …)", "fr": "{id} (article à venir sur …)"}


def existing_ids(project: Project) -> set[str]:
    """The series ids the wiki's pages declare (`article_id:` in their front matter)."""
    ids = set()
    for page in project.pages():
        for lang, path in page.files.items():
            declared = read(path, lang).meta.get("article_id")
            if declared:
                ids.add(str(declared))
    return ids


def check(project: Project) -> list[Finding]:
    """A finding for each mention of a not-yet-written article without its language's marker."""
    exists = existing_ids(project)
    findings = []
    for text in prose_texts(project):
        marker = MARKER.get(text.lang)
        if marker is None:
            continue
        for match in ARTICLE_ID.finditer(text.text):
            article = match["id"]
            if article in exists or text.text[match.end():].lstrip(" \u00a0\u202f").startswith(marker):
                continue
            findings.append(Finding(NAME, text.file, text.line, (
                f"{article} is an article the wiki does not have yet: write "
                f"“{EXAMPLE[text.lang].format(id=article)}”, as at every other mention")))
    return findings
