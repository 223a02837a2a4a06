"""The widgets read the compiled catalogs (widgets/locales/, which the build writes): compile them from the
.po files first, so that the tests read the catalogs as they are now, not as the last build left them."""

from __future__ import annotations

import pytest

from wiki import catalogs, languages


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs() -> None:
    """Compile every language's catalog (a file is rewritten only when it changed)."""
    catalogs.compile_all(languages.read().all)
