"""Hostile Markdown for the content policy (`wiki/content_policy.py`): each payload must fail the build.

`ISSUE` holds the variants that passed the html.parser check of issue 33; `CORPUS` known mutation-XSS
and parser-differential vectors (the shapes of DOMPurify's and html5sec.org's test vectors: namespace
confusion through svg/math, foster parenting, raw-text breakouts, comment and CDATA tricks, obfuscated
script URLs, elements that load, submit or redirect) and the same through Markdown's own syntax.
`SAFE` is what editors write and must keep building. Each is a Markdown snippet, one or more lines.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Payload:
    """A named Markdown snippet."""

    name: str
    markdown: str


ALERT = "alert(1)"

ISSUE = [
    Payload("noscript-meta-refresh",
            "<noscript><p title=\"</noscript><meta http-equiv=refresh content='0;url=https://example.org/'>\"></p>"
            "</noscript>"),
    Payload("comment-abrupt-close", f"<!--><img src=x onerror={ALERT}>-->"),
    Payload("noscript-breakout", f'<noscript><img title="</noscript><img src=x onerror={ALERT}>"></noscript>'),
    Payload("textarea-breakout", f'<textarea><img title="</textarea><img src=x onerror={ALERT}>"></textarea>'),
    Payload("title-breakout", f'<title><img title="</title><img src=x onerror={ALERT}>"></title>'),
    Payload("script-type-ecmascript", f'<script type="text/ecmascript">{ALERT}</script>'),
    Payload("script-type-module", f'<script type="module">{ALERT}</script>'),
    Payload("script-type-json", '<script type="application/json">{"data": 1}</script>'),
    Payload("href-entity-tab", f'<a href="java&#x09;script:{ALERT}">link</a>'),
    Payload("href-leading-c0", f'<a href="\x01javascript:{ALERT}">link</a>'),
    Payload("svg-animate-href",
            f'<svg width="100" height="40"><a><animate attributeName="href" values="javascript:{ALERT}"/>'
            '<text x="0" y="20">link</text></a></svg>'),
    Payload("style-element", "<style>.md-content{display:none}</style>"),
    Payload("style-overlay", '<div style="position:fixed;inset:0;background:#fff;z-index:9">Log in again</div>'),
    Payload("form-off-site", '<form action="https://example.org/collect" method="post"><input name="q">'
                             "<button>Send</button></form>"),
    Payload("img-off-site", '<img src="https://example.org/pixel.png" alt="">'),
    Payload("img-protocol-relative", '<img src="//example.org/pixel.png" alt="">'),
]

CORPUS = [
    # namespace confusion and foster parenting (mutation XSS)
    Payload("svg-p-style-mxss", f'<svg></p><style><a id="</style><img src=1 onerror={ALERT}>">'),
    Payload("svg-style", f"<svg><style><img src=x onerror={ALERT}></style></svg>"),
    Payload("math-mtext-table-mglyph-style",
            f'<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror={ALERT}&gt;">'),
    Payload("math-mi-mglyph-svg-textarea",
            f'<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror={ALERT} src=1>">'),
    Payload("form-math-mglyph-style",
            f"<form><math><mtext></form><form><mglyph><style></math><img src onerror={ALERT}>"),
    Payload("select-template-style",
            '<select><template><style><!--</style><a rel="--></style></template></select>'
            f'<img src=x onerror={ALERT}>">'),
    Payload("select-img", f"<select><img src=x onerror={ALERT}></select>"),
    Payload("svg-cdata", f"<svg><![CDATA[><img src=x onerror={ALERT}>]]></svg>"),
    Payload("svg-title-integration-point", f"<svg><title><img src=x onerror={ALERT}></title></svg>"),
    Payload("svg-foreignobject",
            f'<svg><foreignObject><iframe src="javascript:{ALERT}"></iframe></foreignObject></svg>'),
    Payload("table-foster-img", f"<table><img src=x onerror={ALERT}></table>"),
    Payload("table-foster-link", f'<table><a href="javascript:{ALERT}">x</a></table>'),
    Payload("template-img", f"<template><img src=x onerror={ALERT}></template>"),
    Payload("template-shadowroot",
            f'<div><template shadowrootmode="open"><img src=x onerror={ALERT}></template></div>'),
    Payload("noembed-breakout", f'<noembed><img title="</noembed><img src=x onerror={ALERT}>"></noembed>'),
    Payload("noframes-breakout", f'<noframes><img title="</noframes><img src=x onerror={ALERT}>"></noframes>'),
    Payload("xmp-breakout", f'<xmp><img title="</xmp><img src=x onerror={ALERT}>"></xmp>'),
    Payload("plaintext", "<plaintext><p>everything after this is text</p>"),
    Payload("comment-dash-abrupt", f"<!---><img src=x onerror={ALERT}>-->"),
    Payload("processing-instruction", f'<?xml-stylesheet href="x"?><img src=x onerror={ALERT}>'),
    # script URLs, obfuscated
    Payload("href-decimal-entity", f'<a href="&#106;avascript:{ALERT}">link</a>'),
    Payload("href-hex-entities",
            '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">link</a>'),
    Payload("href-entities-without-semicolon", f'<a href="&#0000106&#0000097vascript:{ALERT}">link</a>'),
    Payload("href-entity-newline", f'<a href="jav&#x0A;ascript:{ALERT}">link</a>'),
    Payload("href-named-tab", f'<a href="javas&Tab;cript:{ALERT}">link</a>'),
    Payload("href-named-colon", f'<a href="javascript&colon;{ALERT}">link</a>'),
    Payload("href-leading-space", f'<a href=" javascript:{ALERT}">link</a>'),
    Payload("href-mixed-case", f'<a href="JaVaScRiPt:{ALERT}">link</a>'),
    Payload("href-unquoted", f"<a href=javascript:{ALERT}>link</a>"),
    Payload("href-vbscript", '<a href="vbscript:msgbox(1)">link</a>'),
    Payload("href-data-html", '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">link</a>'),
    Payload("math-href", f'<math href="javascript:{ALERT}"><mi>x</mi></math>'),
    Payload("blockquote-cite-javascript", f'<blockquote cite="javascript:{ALERT}">quote</blockquote>'),
    # elements that load, submit, redirect or re-point
    Payload("iframe-srcdoc", '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>'),
    Payload("iframe-javascript", f'<iframe src="javascript:{ALERT}"></iframe>'),
    Payload("object-data", '<object data="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"></object>'),
    Payload("embed", '<embed src="https://example.org/movie.swf">'),
    Payload("base-href", '<base href="https://example.org/">'),
    Payload("meta-refresh", '<meta http-equiv="refresh" content="0;url=https://example.org/">'),
    Payload("link-stylesheet", '<link rel="stylesheet" href="https://example.org/x.css">'),
    Payload("form-action", f'<form action="javascript:{ALERT}"><button>Send</button></form>'),
    Payload("button-formaction", f'<button formaction="javascript:{ALERT}">Send</button>'),
    Payload("isindex", f'<isindex action="javascript:{ALERT}" type="image">'),
    Payload("frameset-onload", f"<frameset onload={ALERT}>"),
    Payload("body-onload", f"<body onload={ALERT}>"),
    # SVG references and animation
    Payload("svg-xlink-href", f'<svg><a xlink:href="javascript:{ALERT}"><text y="20">link</text></a></svg>'),
    Payload("svg-use-data",
            "<svg><use href=\"data:image/svg+xml,&lt;svg id='x' xmlns='http://www.w3.org/2000/svg'&gt;"
            "&lt;image href='1' onerror='alert(1)'/&gt;&lt;/svg&gt;#x\"/></svg>"),
    Payload("svg-use-off-site", '<svg><use href="https://example.org/sprite.svg#icon"/></svg>'),
    Payload("svg-set-href",
            f'<svg><a><set attributeName="href" to="javascript:{ALERT}"/><text y="20">x</text></a></svg>'),
    Payload("svg-animate-xlink", f'<svg><animate attributeName="xlink:href" from="javascript:{ALERT}" to="x"/></svg>'),
    Payload("svg-script", f"<svg><script>{ALERT}</script></svg>"),
    Payload("svg-onload-solidus", f"<svg/onload={ALERT}>"),
    Payload("svg-image-off-site", '<svg><image href="https://example.org/pixel.png"/></svg>'),
    Payload("svg-fill-url-off-site", '<svg><rect width="9" height="9" fill="url(https://example.org/p.svg#g)"/></svg>'),
    # handlers, styles and off-site sources
    Payload("img-onerror-uppercase", f"<IMG SRC=x OnErRoR={ALERT}>"),
    Payload("details-ontoggle", f"<details open ontoggle={ALERT}><summary>x</summary></details>"),
    Payload("a-onclick", f'<a href="#" onclick="{ALERT}">link</a>'),
    Payload("marquee-onstart", f"<marquee onstart={ALERT}>x</marquee>"),
    Payload("unknown-element-autofocus", f"<x-card tabindex=1 autofocus onfocus={ALERT}>x</x-card>"),
    Payload("img-srcset-off-site", '<img srcset="https://example.org/pixel.png 1x" alt="">'),
    Payload("img-entity-protocol-relative", '<img src="&#47;&#47;example.org/pixel.png" alt="">'),
    Payload("img-backslashes", '<img src="\\\\example.org\\pixel.png" alt="">'),
    Payload("img-http-backslash", '<img src="http:\\\\example.org/pixel.png" alt="">'),
    Payload("img-data-url", '<img src="data:image/svg+xml,%3Csvg%20onload%3Dalert(1)%3E" alt="">'),
    Payload("video-poster-off-site", '<video controls poster="https://example.org/poster.png"></video>'),
    Payload("video-source-off-site", '<video controls><source src="https://example.org/v.mp4"></video>'),
    Payload("a-rel-opener", '<a href="https://example.org/" target="_blank" rel="opener">link</a>'),
    Payload("reserved-id", '<div id="kw-runtime">{"root": "https://example.org/"}</div>'),
    Payload("data-attribute", '<div data-calculator="vram_fit">x</div>'),
    Payload("handler-on-a-later-line", f'<img src="x.png" alt="x"\n     onerror="{ALERT}">'),
    # the same through Markdown's own syntax
    Payload("markdown-link-javascript", f"[link](javascript:{ALERT})"),
    Payload("markdown-link-data", "[link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"),
    Payload("markdown-image-off-site", "![pixel](https://example.org/pixel.png)"),
    Payload("markdown-image-protocol-relative", "![pixel](//example.org/pixel.png)"),
    Payload("attr-list-handler", 'A paragraph.\n{: onclick="alert(1)" }'),
    Payload("attr-list-style", 'A paragraph.\n{: style="position:fixed;inset:0" }'),
    Payload("table-alignment", "| a | b |\n|:-:|--:|\n| 1 | 2 |"),
]

SAFE = [
    Payload("prose", "Plain text with *emphasis*, **strong**, `code`, AT&T and 1 < 2 > 0."),
    Payload("links", "[relative](other.md), [anchor](#section), [off-site](https://example.org/), "
                     "<https://example.org/auto>, [mail](mailto:editor@example.org), [phone](tel:+4512345678)."),
    Payload("images", "![figure](img/figure.svg) ![own host](https://wiki.example/img/x.png)"),
    Payload("table", "| GPU | GB |\n|-----|----|\n| A | 80 |\n| B | 96 |"),
    Payload("admonition", '!!! note "Note"\n    Text of the note with a [link](other.md).'),
    Payload("attr-list", "## Heading { #section-id }\n\nA paragraph.\n{: .lead }"),
    Payload("md-in-html", '<div class="grid" markdown>\n\n**Bold** text.\n\n</div>'),
    Payload("code-shows-html",
            f"```html\n<script>{ALERT}</script>\n<img src=x onerror={ALERT}>\n```\n\n"
            f"Inline: `<iframe src=\"javascript:{ALERT}\">`.\n\n    <meta http-equiv=\"refresh\">"),
    Payload("escaped-text", "&lt;script&gt;alert(1)&lt;/script&gt; is text."),
    Payload("comment", "<!-- a note for editors -->\n\nText."),
    Payload("raw-html", '<details><summary>More</summary>\n<p>Hidden <abbr title="Graphics">GPU</abbr>.</p>\n'
                        "</details>\n\n"
                        '<figure><img src="img/x.png" alt="x"><figcaption>A figure</figcaption></figure>'),
    Payload("inline-svg",
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'viewBox="0 0 100 20" width="100" height="20" role="img" aria-label="bar">'
            '<title>bar</title><defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient>'
            '</defs><rect width="50" height="20" fill="url(#g)"/><use href="#g"/>'
            '<text x="55" y="15" font-size="12">50 %</text></svg>'),
    Payload("footnotes", "A claim.[^1]\n\n[^1]: Its source, [a paper](https://example.org/paper)."),
    Payload("definition-list", "Term\n:   Its definition."),
]
