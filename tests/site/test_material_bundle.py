"""Material's bundle patches: each matches exactly as often as its table says, or the build names it."""

from __future__ import annotations

from pathlib import Path

import material
import pytest

from tests.conftest import ROOT, build_site
from tests.support.project import project_with_page
from wiki.material_bundle import PATCHES, BundlePatchError, patch_bundle

THEME_JS = Path(material.__file__).parent / "templates" / "assets" / "javascripts"
BUNDLE = next(THEME_JS.glob("bundle.*.min.js"))


def test_the_pinned_bundle_takes_every_patch() -> None:
    patched = patch_bundle(BUNDLE.read_text(encoding="utf-8"))
    assert "unpkg.com" not in patched and "jsdelivr" not in patched
    assert 'location.protocol!=="file:"' not in patched
    for patch in PATCHES:
        assert patch.pattern.search(patched) is None, patch.name


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.name)
def test_a_bundle_where_a_patch_matches_otherwise_fails_naming_it(patch) -> None:
    text = BUNDLE.read_text(encoding="utf-8")
    for changed in (patch.pattern.sub("", text), text + ";" + patch.pattern.search(text)[0]):
        with pytest.raises(BundlePatchError, match=repr(patch.name)):
            patch_bundle(changed)


def test_the_build_fails_naming_the_patch_on_a_bundle_that_does_not_match(tmp_path: Path) -> None:
    config = project_with_page(tmp_path, "title: Side\n", "Plain text.")
    # the theme's own bundle, replaced through custom_dir by one without the search-at-load code
    fake = BUNDLE.read_text(encoding="utf-8").replace('location.protocol!=="file:"', "true")
    (tmp_path / "overrides" / "assets" / "javascripts" / BUNDLE.name).write_text(fake, encoding="utf-8")
    result = build_site(tmp_path / "site", config)
    assert result.returncode != 0
    assert "'search-on-demand' matched 0 times instead of 1" in result.stderr, result.stderr


def test_the_palette_override_runs_materials_own_palette_script_first() -> None:
    # overrides/partials/javascripts/palette.html adds a first visit's palette after Material's script,
    # which it copies: a Material upgrade that changes that script must be copied again.
    theirs = (THEME_JS.parent.parent / "partials" / "javascripts" / "palette.html").read_text(encoding="utf-8")
    ours = (ROOT / "overrides" / "partials" / "javascripts" / "palette.html").read_text(encoding="utf-8")
    script = theirs[theirs.index("<script>"):theirs.index("</script>") + len("</script>")]
    assert ours[ours.index("<script>"):].startswith(script)
