"""openapi.yaml is the contract: it must be what the app serves."""

from pathlib import Path

import yaml

from app import create_app

ROOT = Path(__file__).resolve().parent.parent


def served_spec() -> dict:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return app.test_client().get("/openapi.json").get_json()


def test_committed_openapi_yaml_matches_what_the_app_serves():
    committed = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert committed == served_spec(), "openapi.yaml is stale: run `make openapi`"


def test_every_error_response_is_problem_json():
    spec = served_spec()
    for name, response in spec["components"]["responses"].items():
        if "content" in response:
            assert list(response["content"]) == ["application/problem+json"], name
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")) or status == "default":
                    content = response.get("content")
                    if content is not None:
                        assert list(content) == ["application/problem+json"], (path, method, status)


def test_the_interactive_docs_are_served_offline_from_the_installed_bundle():
    client = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"}).test_client()
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert (
        "/docs/static/swagger-ui-bundle.js" in html and "//cdn" not in html and "https://" not in html.split("<body")[0]
    )
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        response = client.get(f"/docs/static/{asset}")
        assert response.status_code == 200 and len(response.get_data()) > 10_000
