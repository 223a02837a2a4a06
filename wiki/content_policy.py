"""What a page's content may carry into the built HTML (an allowlist), and front matter made safe for the theme.

Markdown passes raw HTML through, so a page (or a pull request to it) could add a script, an event
handler, a `javascript:` link, a `<meta http-equiv="refresh">` that sends readers elsewhere, a `<base>`
that re-points every relative URL, a frame, a form that posts elsewhere, an image from another host
that tells it who reads the page, or HTML written so that a lenient parser sees text where a browser
sees an element (`<noscript><p title="</noscript><meta ...>">`, `<!--><img onerror=...>-->`). The
site's CSP blocks many of these in the browser, not all (a meta refresh is no CSP matter); the build
refuses all of them, with the Markdown file and line, so that nothing depends on the host sending the
policy.

`violations(html, own_host)` decides, and is the only place that does: the build (`wiki/plugin.py`,
on every page of every language) and so `python3 build.py check` call it. It parses the page's
content HTML as a browser does, with html5lib (the WHATWG parsing algorithm: foreign content,
foster parenting, raw-text elements, a browser with scripting on), and compares what that parse
holds with an allowlist:

- elements: text structure, links, images and media, tables, a static SVG subset; nothing that runs,
  loads or submits (script of any type, style, meta, base, link, frames, object, embed, form and
  its controls, template, MathML), nothing parsed as raw text (noscript, noembed, noframes, xmp,
  title, textarea, plaintext), no SVG animation;
- attributes: per element, no event handler, no `style`, no `data-*` (the page script finds its widgets
  by them), no `id` beginning with `kw-` (the widgets' and the runtime configuration's: the page script
  looks them up by id, and the first in the page wins);
- URLs, after the WHATWG URL parser's clean-up (entities decoded, leading and trailing C0 controls and
  spaces stripped, tabs and newlines removed anywhere): links are relative, http(s), mailto or tel;
  image and media sources are relative or on the site's own host (no data:, no other host); SVG
  references (`use`, `url(...)`) point into the page;
- the HTML has no parse error: where a parser recovers from one, browsers (and their versions) may
  read it otherwise than this check does, which is where sanitizer bypasses live.

Failing is the point, not stripping: an editor sees the mistake (`docs/<file>:<line>: ...`) instead
of a page that silently lost part of its text. The calculators' widgets are not part of what is
checked: they are made by our own code (`wiki/fences.py`, `wiki/render.py`, `widgets/`) from escaped data,
and stand as tokens in the HTML the check reads (`standing_for`); a calculator page's blocks are put in
after it, in place of their token paragraphs (`wiki/methods.py`). The check makes sure each token stands
as text, where the widget can go (not in a comment or an attribute).

Front matter reaches the theme's templates (header, navigation, `<title>`, `<meta name="description">`,
the home page's list), many of which print it unescaped, as MkDocs' own titles are HTML. Its strings
are therefore HTML-escaped once, as `Markup`, before any template sees them: printed raw they are
inert text, and `| e` in a template does not escape them twice.
"""

from __future__ import annotations

import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from html5lib import HTMLParser
from html5lib._tokenizer import HTMLTokenizer
from html5lib.constants import E as PARSE_ERRORS
from html5lib.constants import namespaces
from html5lib.treebuilders import getTreeBuilder
from markupsafe import Markup, escape

from wiki.problems import Problem

HTML, SVG = namespaces["html"], namespaces["svg"]
# How html5lib names a namespaced attribute of foreign content ({uri}local) -> the name written in HTML.
ATTRIBUTE_PREFIXES = {namespaces["xlink"]: "xlink:", namespaces["xml"]: "xml:", namespaces["xmlns"]: "xmlns:"}

# HTML elements a page may carry, each with the attributes it may have beyond GLOBAL_ATTRIBUTES.
HTML_ELEMENTS: dict[str, frozenset[str]] = {name: frozenset(attributes) for name, attributes in {
    **dict.fromkeys(("p", "div", "span", "section", "article", "aside", "h1", "h2", "h3", "h4", "h5", "h6",
                     "hr", "br", "wbr", "em", "strong", "b", "i", "u", "s", "small", "mark", "sub", "sup",
                     "code", "pre", "kbd", "samp", "var", "dfn", "abbr", "cite", "bdi", "bdo", "ruby", "rt", "rp",
                     "ul", "dl", "dt", "dd", "figure", "figcaption", "caption", "thead", "tbody", "tfoot", "tr",
                     "summary"), ()),
    "a": ("href", "hreflang", "rel", "target"),
    "blockquote": ("cite",), "q": ("cite",), "del": ("cite", "datetime"), "ins": ("cite", "datetime"),
    "time": ("datetime",), "ol": ("start", "reversed", "type"), "li": ("value",), "details": ("open",),
    "table": (), "col": ("span",), "colgroup": ("span",),
    "td": ("colspan", "rowspan", "headers", "align"), "th": ("colspan", "rowspan", "headers", "scope", "abbr", "align"),
    "img": ("src", "alt", "width", "height", "loading", "decoding"),
    "video": ("src", "poster", "controls", "width", "height", "muted", "loop", "playsinline", "preload"),
    "audio": ("src", "controls", "muted", "loop", "preload"),
    "source": ("src", "type"), "track": ("src", "kind", "srclang", "label", "default"),
}.items()}
GLOBAL_ATTRIBUTES = frozenset({"id", "class", "title", "lang", "dir", "role", "translate"})

# A static SVG figure: shapes, text, gradients, clipping; no script, style, foreignObject or animation.
SVG_ELEMENTS = frozenset({
    "svg", "g", "defs", "title", "desc", "symbol", "use", "a", "image", "path", "rect", "circle", "ellipse",
    "line", "polyline", "polygon", "text", "tspan", "textpath", "lineargradient", "radialgradient", "stop",
    "clippath", "mask", "pattern", "marker",
})
SVG_ATTRIBUTES = frozenset({
    "id", "class", "lang", "role", "viewbox", "preserveaspectratio", "width", "height", "x", "y", "x1", "y1",
    "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "d", "points", "dx", "dy", "rotate", "textlength",
    "lengthadjust", "transform", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
    "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit", "opacity",
    "font-size", "font-family", "font-weight", "font-style", "text-anchor", "dominant-baseline",
    "alignment-baseline", "letter-spacing", "word-spacing", "text-decoration", "offset", "stop-color",
    "stop-opacity", "gradientunits", "gradienttransform", "spreadmethod", "clip-path", "clip-rule",
    "clippathunits", "mask", "maskunits", "maskcontentunits", "patternunits", "patterncontentunits",
    "patterntransform", "marker-start", "marker-mid", "marker-end", "markerwidth", "markerheight", "refx",
    "refy", "orient", "markerunits", "visibility", "display", "vector-effect", "shape-rendering",
    "text-rendering", "focusable", "version", "xmlns", "xmlns:xlink", "href", "xlink:href", "xlink:title",
    "startoffset", "method", "spacing", "side", "pathlength",
})
# SVG elements that change another element's attributes over time: `values="javascript:..."` on href
# (SVG Animations, https://svgwg.org/specs/animations/#AnimationElements; `discard` removes an element).
SVG_ANIMATION = frozenset({"animate", "animatemotion", "animatetransform", "animatecolor", "set", "discard",
                           "mpath"})

LINK_SCHEMES = frozenset({"http", "https", "mailto", "tel"})
SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):", re.IGNORECASE)
C0_OR_SPACE = "".join(map(chr, range(0x21)))
TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
URL_FUNCTION = re.compile(r"url\(\s*(['\"]?)(?P<target>[^)'\"]*)\1\s*\)", re.IGNORECASE)
RESERVED = re.compile(r"^kw[-_]", re.IGNORECASE)  # ids of the build's widgets, the runtime's configuration
# Characters the HTML parser reports as invalid (controls, noncharacters: HTML Standard, "preprocessing the
# input stream", https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream);
# html5lib places that error at the start of the chunk it read, so the policy finds them itself.
INVALID = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")
# Python-Markdown's tables write a column's alignment (`:--:`) as this style, which the CSP blocks anyway.
ALIGNMENT = re.compile(r"^\s*text-align:\s*(left|right|center);?\s*$", re.IGNORECASE)

REMOVE = "remove it, or show it as code: a page carries text, links, images and tables; only the theme runs scripts"
SELF_HOSTED = "put the file under docs/ and refer to it relatively: the site loads nothing from another host"
WELL_FORMED = ("write it as well-formed HTML: where a parser recovers from an error, browsers may read it "
               "otherwise than the check does")
ALIGN = "remove the colons of the table's separator line: the site's policy blocks inline styles"
RESERVED_NAME = "choose another name: names beginning with kw- belong to the calculators' widgets"
PLACEHOLDER = "put the calculator block outside HTML tags and comments, where the widget can go"


@dataclass(frozen=True)
class Finding:
    """One thing the policy refuses: what it is, what to do, and text to look for in the Markdown source."""

    what: str
    advice: str
    needles: tuple[str, ...]
    at: int = field(default=0, compare=False)  # where in the HTML (an offset): findings are sorted by it

    @property
    def message(self) -> str:
        """The line an editor reads: what is not allowed and what to do instead."""
        return f"{self.what} is not allowed in a page: {self.advice}"


class _Tokenizer(HTMLTokenizer):
    """html5lib's tokenizer, noting where each tag starts and ends in the HTML ((line, column) pairs) and
    where a CDATA section is."""

    def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        super().__init__(*args, **kwargs)
        self.kw_cdata: list[tuple[int, int]] = []
        self.kw_last_span: tuple[tuple[int, int], tuple[int, int]] | None = None  # of the last tag

    def tagOpenState(self) -> bool:  # noqa: N802 (html5lib's name)
        self.kw_tag_start = self.stream.position()  # just after the "<"
        return super().tagOpenState()

    def cdataSectionState(self) -> bool:  # noqa: N802
        # Text in SVG and MathML, a bogus comment in HTML: its meaning is the namespace's, refused.
        self.kw_cdata.append(self.stream.position())
        return super().cdataSectionState()

    def emitCurrentToken(self) -> None:  # noqa: N802
        token = self.currentToken
        if token.get("type") in (3, 4) and hasattr(self, "kw_tag_start"):  # StartTag, EndTag
            line, column = self.kw_tag_start
            token["kw_span"] = self.kw_last_span = ((line, column - 1), self.stream.position())
        super().emitCurrentToken()


class _Parser(HTMLParser):
    """html5lib's parser with the tokenizer above; the rest is html5lib's (the WHATWG algorithm)."""

    def _parse(self, stream, innerHTML=False, container="div", scripting=False, **kwargs):  # noqa: N803, ANN001, ANN202
        self.innerHTMLMode = innerHTML
        self.container = container
        self.scripting = scripting
        self.tokenizer = _Tokenizer(stream, parser=self, **kwargs)
        self.tree.kw_tokenizer = self.tokenizer
        self.reset()
        self.mainLoop()


_EtreeBuilder = getTreeBuilder("etree")


class _Element(_EtreeBuilder.elementClass):  # type: ignore[misc, name-defined]
    """html5lib's ElementTree node, mended: a node inserted before another (a table's foster parenting) is
    one of its parent's child nodes too, so that moving the children (a fragment's end) keeps it."""

    def insertBefore(self, node, refNode) -> None:  # noqa: N802, N803, ANN001
        super().insertBefore(node, refNode)
        self._childNodes.insert(self._childNodes.index(refNode), node)

    def reparentChildren(self, newParent) -> None:  # noqa: N802, N803, ANN001
        if newParent.childNodes and newParent.childNodes[-1]._element.tail is None:
            newParent.childNodes[-1]._element.tail = ""
        super().reparentChildren(newParent)


class _Builder(_EtreeBuilder):  # type: ignore[misc, valid-type]
    """html5lib's ElementTree builder, keeping the source span of the tag each element was made from."""

    elementClass = _Element  # noqa: N815

    def reset(self) -> None:
        super().reset()
        self.spans: dict[int, tuple[tuple[int, int], tuple[int, int]]] = {}
        self.made: list[object] = []  # keeps the elements alive, so that their ids stay theirs

    def _note(self, element, token):  # noqa: ANN001, ANN202
        # An element the parser implies (<isindex>'s form, a table's tbody) gets the span of the tag it answers.
        span = token.get("kw_span") or self.kw_tokenizer.kw_last_span
        if span:
            self.spans[id(element._element)] = span
            self.made.append(element._element)
        return element

    def createElement(self, token):  # noqa: N802, ANN001, ANN201
        return self._note(super().createElement(token), token)

    def insertElementNormal(self, token):  # noqa: N802, ANN001, ANN201
        return self._note(super().insertElementNormal(token), token)


@dataclass
class _Source:
    """The HTML being checked, for the raw text of a tag or an error's place."""

    html: str

    def __post_init__(self) -> None:
        self.lines = self.html.split("\n")
        self.starts = [0]
        for text in self.lines:
            self.starts.append(self.starts[-1] + len(text) + 1)

    def offset(self, position: tuple[int, int]) -> int:
        """The offset in the HTML of a (line from 1, column from 0) position."""
        line, column = position
        return self.starts[min(max(line, 1), len(self.lines)) - 1] + max(column, 0)

    def text(self, span: tuple[tuple[int, int], tuple[int, int]] | None) -> str:
        """The first line of the raw tag at `span`, as written."""
        if span is None:
            return ""
        raw = self.html[self.offset(span[0]):self.offset(span[1])]
        return raw.split("\n", 1)[0].strip()

    def near(self, position: tuple[int, int]) -> str:
        """The raw text of the tag (or the line) where a parse error was found."""
        line, column = position
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        start = text.rfind("<", 0, max(column, 1))
        return (text[start:column] if start >= 0 else text).strip()


def clean_url(value: str) -> str:
    """`value` as the WHATWG URL parser reads it: leading/trailing C0 controls and spaces off, tabs and newlines
    removed anywhere (the parser of the page has already decoded character references)."""
    # URL Standard, basic URL parser, steps 1 and 3: https://url.spec.whatwg.org/#concept-basic-url-parser
    return TAB_OR_NEWLINE.sub("", value.strip(C0_OR_SPACE))


def url_scheme(url: str) -> str | None:
    """The scheme of a cleaned URL, lower case, or None for a relative URL."""
    match = SCHEME.match(url)
    return match[1].lower() if match else None


def url_host(url: str) -> str | None:
    """The host of a cleaned http(s) or protocol-relative URL (backslashes read as slashes), else None."""
    scheme = url_scheme(url)
    rest = url.replace("\\", "/")
    if scheme in ("http", "https"):
        rest = rest[len(scheme) + 1:].lstrip("/")
    elif scheme is None and rest.startswith("//"):
        rest = rest.lstrip("/")
    else:
        return None
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    host = authority.rsplit("@", 1)[-1]
    host = host[:host.index("]") + 1] if host.startswith("[") and "]" in host else host.split(":", 1)[0]
    return host.lower().rstrip(".")


def _link_problem(url: str) -> str | None:
    scheme = url_scheme(url)
    return f"a {scheme}: URL" if scheme is not None and scheme not in LINK_SCHEMES else None


def _source_problem(url: str, own_host: str | None) -> tuple[str, str] | None:
    """(what, advice) when `url` is not a source the page may load: relative, or on the site's own host."""
    scheme = url_scheme(url)
    host = url_host(url)
    if host is not None:
        return None if own_host and host == own_host.lower() else (f"an off-site source ({url[:60]})", SELF_HOSTED)
    if scheme is not None:
        return f"a {scheme}: URL", REMOVE
    return None


def _fragment_only(url: str) -> bool:
    return url.startswith("#")


def _attribute_name(key: str) -> str:
    if key.startswith("{"):
        uri, local = key[1:].split("}", 1)
        return local if (uri, local) == (namespaces["xmlns"], "xmlns") else ATTRIBUTE_PREFIXES.get(uri, "") + local
    return key


def _refused_element(namespace: str, name: str) -> str | None:
    """Why the policy refuses this element whole, or None when it may stand (its attributes checked)."""
    tag = f"<{name}>"
    if namespace == SVG:
        if name.lower() in SVG_ANIMATION:
            return f"an SVG animation {tag} (it can change a URL after the page loads)"
        return None if name.lower() in SVG_ELEMENTS else f"an SVG {tag} element"
    if namespace == HTML:
        return None if name in HTML_ELEMENTS else f"a {tag} element"
    return f"a {tag} element ({'MathML' if 'MathML' in namespace else namespace})"


def _element_findings(namespace: str, name: str, attributes: dict[str, str],
                      own_host: str | None) -> Iterator[tuple[str, str, str]]:
    """(what, advice, the attribute value to look for) for one element of the parse."""
    tag = f"<{name}>"
    refused = _refused_element(namespace, name)
    if refused:
        yield refused, REMOVE, ""
        # Named on an element refused whole too (`<text<img src=x onerror=...>` is an element "text<img"
        # with an onerror=): the editor learns what to take out, not only where.
        for key in attributes:
            attribute = _attribute_name(key)
            if attribute.lower().startswith("on"):
                yield f"an event-handler attribute {attribute}=", REMOVE, attribute
        return
    allowed = SVG_ATTRIBUTES if namespace == SVG else GLOBAL_ATTRIBUTES | HTML_ELEMENTS[name]
    for key, value in attributes.items():
        attribute = _attribute_name(key)
        lowered = attribute.lower()
        url = clean_url(value)
        if lowered.startswith("on"):
            yield f"an event-handler attribute {attribute}=", REMOVE, attribute
        elif lowered == "style":
            if namespace == HTML and name in ("td", "th") and ALIGNMENT.match(value):
                yield "a table column's alignment", ALIGN, ""
            else:
                yield "a style= attribute (inline styles)", REMOVE, value
        elif lowered.startswith("aria-") or lowered in allowed:
            yield from _value_findings(namespace, name, lowered, attribute, value, url, own_host)
        else:
            yield f"the attribute {attribute}= on {tag}", REMOVE, attribute


def _value_findings(namespace: str, name: str, lowered: str, attribute: str, value: str, url: str,
                    own_host: str | None) -> Iterator[tuple[str, str, str]]:
    """(what, advice, needle) for the value of an allowed attribute: URLs, reserved names."""
    tag = f"<{name}>"
    if lowered == "rel" and "opener" in value.lower().split():
        yield "rel=\"opener\" (the linked page could navigate this one)", REMOVE, value.strip()
    elif lowered == "id" and RESERVED.match(value.strip()):
        yield f"the id {value.strip()!r}", RESERVED_NAME, value.strip()
    elif lowered in ("href", "xlink:href") and namespace == SVG and name.lower() != "a":
        if name.lower() == "image":
            found = _source_problem(url, own_host)
            if found:
                yield f"{found[0]} in {attribute}= of {tag}", found[1], value.strip()
        elif not _fragment_only(url):
            yield f"a reference outside the page in {attribute}= of {tag}", REMOVE, value.strip()
    elif lowered in ("href", "xlink:href", "cite"):
        found = _link_problem(url)
        if found:
            yield f"{found} in {attribute}=", REMOVE, value.strip()
    elif lowered in ("src", "poster"):
        found = _source_problem(url, own_host)
        if found:
            yield f"{found[0]} in {attribute}= of {tag}", found[1], value.strip()
    elif namespace == SVG:
        for reference in URL_FUNCTION.finditer(value):
            if not _fragment_only(clean_url(reference["target"])):
                yield f"a reference outside the page in {attribute}= of {tag}", REMOVE, value.strip()


def _walk(node: ET.Element) -> Iterator[ET.Element]:
    for child in node:
        if isinstance(child.tag, str):
            yield child
        yield from _walk(child)


def _split(tag: str) -> tuple[str, str]:
    if tag.startswith("{"):
        uri, local = tag[1:].split("}", 1)
        return uri, local
    return HTML, tag


def _texts(node: ET.Element) -> Iterator[str]:
    """The text of `node` and its descendants (element text and tails; a comment's own text is not text)."""
    if isinstance(node.tag, str) and node.text:
        yield node.text
    for child in node:
        yield from _texts(child)
        if child.tail:
            yield child.tail


def _placeholder_findings(fragment: ET.Element, placeholders: Iterable[str], at: int) -> Iterator[Finding]:
    """Every calculator placeholder must stand in the text of an element, where its widget can go."""
    texts = "\n".join(_texts(fragment))
    for token in placeholders:
        if token not in texts:
            yield Finding("a calculator block inside an HTML tag or comment", PLACEHOLDER, (token,), at)


def violations(html: str, own_host: str | None = None, placeholders: Iterable[str] = ()) -> list[Finding]:
    """Everything in a page's content HTML that the policy refuses, in the order of the HTML.

    `own_host` is the site's host (images and media may come from there); `placeholders` are the tokens
    the HTML holds for our widgets and blocks (`standing_for`, `wiki/methods.py`): each must stand as text.
    """
    html = html.replace("\r\n", "\n").replace("\r", "\n")
    source = _Source(html)
    parser = _Parser(tree=_Builder)
    fragment = parser.parseFragment(html, container="div", scripting=True)
    findings = []
    for match in INVALID.finditer(html):
        line = html.count("\n", 0, match.start())
        text = source.lines[line][:match.start() - source.starts[line] + 1]
        findings.append(Finding(f"an invisible control character (U+{ord(match[0]):04X})", WELL_FORMED,
                                (text[text.rfind("<"):] if "<" in text else text.strip(),), match.start()))
    for position, code, data in parser.errors:
        if code == "invalid-codepoint":
            continue  # found above, at its place
        text = PARSE_ERRORS.get(code, code) % (data or {})
        at = source.offset(position)
        # At the end of the HTML, what was left open is the last tag's doing, not the page's last line.
        near = source.text(parser.tokenizer.kw_last_span) if at >= len(html.rstrip()) else source.near(position)
        findings.append(Finding(f"HTML with a parse error ({text.rstrip('.')})", WELL_FORMED,
                                tuple(filter(None, (near,))), min(at, len(html))))
    for position in parser.tokenizer.kw_cdata:
        findings.append(Finding("a CDATA section (<![CDATA[...]]>)", REMOVE, (source.near(position), "<![CDATA["),
                                source.offset(position)))
    at = 0
    for element in _walk(fragment):
        namespace, name = _split(element.tag)
        span = parser.tree.spans.get(id(element))
        at = source.offset(span[0]) if span else at  # an element the parser implied: where the last one was
        raw = source.text(span)
        text = (element.text or "").strip().split("\n", 1)[0][:40]  # the last resort of Markdown's own tags
        for what, advice, needle in _element_findings(namespace, name, dict(element.attrib), own_host):
            findings.append(Finding(what, advice, tuple(filter(None, (raw, needle, f"<{name}", text))), at))
    findings += _placeholder_findings(fragment, placeholders, len(html))
    return sorted(findings, key=lambda found: found.at)


def source_line(markdown: str, needles: Iterable[str], first_line: int = 1, after: int = 0) -> int | None:
    """The line of the Markdown file (front matter counted, the body from `first_line` on) where one of
    `needles` stands, the first needle first; lines from `after` on are preferred (findings come in the
    order of the HTML, which is the source's). None when no needle is there."""
    lines = markdown.splitlines()[first_line - 1:]
    for needle in needles:
        wanted = needle.lower()
        hits = [number for number, line in enumerate(lines, start=first_line) if wanted in line.lower()]
        if hits:
            return next((number for number in hits if number >= after), hits[0])
    return None


def standing_for(html: str, widgets: Iterable[str]) -> tuple[str, list[str]]:
    """`html` with each of our prerendered `widgets` (each in it once) replaced by a token, for the check: what
    our code made from escaped data is not the page's content, but where it stands is (`_placeholder_findings`)."""
    tokens = []
    for widget in widgets:
        token = f"kwwidget{len(tokens)}x{uuid.uuid4().hex}"
        html = html.replace(widget, token, 1)
        tokens.append(token)
    return html, tokens


def page_problems(html: str, markdown: str, file: str, own_host: str | None = None,
                  placeholders: Iterable[str] = (), first_line: int = 1) -> list[Problem]:
    """The policy's findings of one page, each at its line of the Markdown file `file` (`docs/...`, whose
    body starts at `first_line`); a finding not found in the source is put at the one before it."""
    problems, after = [], first_line
    for found in violations(html, own_host, placeholders):
        after = source_line(markdown, found.needles, first_line, after) or after
        problems.append(Problem(file, after, found.message))
    return problems


def escaped(value: object) -> object:
    """Front-matter data with every string HTML-escaped as `Markup` (lists and mappings followed)."""
    if isinstance(value, str):
        return escape(value) if not isinstance(value, Markup) else value
    if isinstance(value, Mapping):
        return {key: escaped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [escaped(item) for item in value]
    return value
