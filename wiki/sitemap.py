"""Add `x-default` alternates (pointing at the default language) to the i18n sitemap."""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET
from pathlib import Path

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS = "http://www.w3.org/1999/xhtml"


def add_x_default(xml_text: str, default_lang: str) -> str:
    """Return the sitemap with one `hreflang="x-default"` link per URL that has a default-language one."""
    ET.register_namespace("", SITEMAP_NS)
    ET.register_namespace("xhtml", XHTML_NS)
    root = ET.fromstring(xml_text)
    for url in root.findall(f"{{{SITEMAP_NS}}}url"):
        links = url.findall(f"{{{XHTML_NS}}}link")
        if any(link.get("hreflang") == "x-default" for link in links):
            continue
        default = next((link for link in links if link.get("hreflang") == default_lang), None)
        if default is not None:
            href = default.get("href", "")
            ET.SubElement(url, f"{{{XHTML_NS}}}link", rel="alternate", hreflang="x-default", href=href)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def rewrite_sitemap(site_dir: Path, default_lang: str) -> None:
    """Rewrite `sitemap.xml` and `sitemap.xml.gz` in place with x-default alternates."""
    path = site_dir / "sitemap.xml"
    if not path.exists():
        return
    text = add_x_default(path.read_text(encoding="utf-8"), default_lang)
    path.write_text(text, encoding="utf-8")
    with gzip.GzipFile(site_dir / "sitemap.xml.gz", "wb", mtime=0) as handle:
        handle.write(text.encode("utf-8"))
