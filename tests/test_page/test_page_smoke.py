"""The page is served by the app and starts a game (quick tier)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_page.conftest import Api

ROOT = Path(__file__).resolve().parents[2]


def test_every_catalog_has_exactly_the_english_keys_and_no_empty_string() -> None:
    catalogs = {p.stem: json.loads(p.read_text()) for p in sorted((ROOT / "web" / "i18n").glob("*.json"))}
    assert sorted(catalogs) == ["en", "ko", "mn", "sk", "vi"]
    english = set(catalogs["en"])
    for lang, catalog in catalogs.items():
        assert set(catalog) == english, lang
        assert [k for k, v in catalog.items() if not isinstance(v, str) or not v.strip()] == [], lang


def test_r9_a_game_started_from_the_page_by_the_cut_has_the_roles_the_api_gives(phones, api: Api) -> None:
    names = ["Ann", "Bob", "Cy"]
    ids = [api.player(n + "-smoke") for n in names]
    page = phones().open()
    for i, pid in enumerate(ids):
        page.select_option(f"#player-{i}", str(pid))
    page.fill("#cut-0", "KS")
    page.fill("#cut-1", "7h")
    page.fill("#cut-2", "2♦")
    page.click("#start-game")
    page.wait_for_selector(".scores tbody tr")
    game_id = int(page.url.split("game=")[1].split("&")[0])
    game = api.get(f"/games/{game_id}")
    assert game["roles"] == {"box": ids[0], "captain": ids[1], "sitter": ids[2]}
    assert page.locator(f'tr[data-player="{ids[0]}"] td.role').inner_text().startswith("Box")


def test_a_player_beyond_the_first_hundred_can_be_chosen(phones, api: Api) -> None:
    ids = [api.player(f"Many-{i}") for i in range(101)]  # the list is read 100 a page
    page = phones().open()
    page.wait_for_selector("#start-game")
    page.select_option("#player-0", str(ids[-1]))
    assert page.locator("#player-0").input_value() == str(ids[-1])
