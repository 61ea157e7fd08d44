"""Each framework adapter through the framework's own test client, against the real server."""

from __future__ import annotations

import uuid
from typing import Callable, Dict

import django
import pytest
from django.conf import settings
from django.test import Client as DjangoClient
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient
from flask import Flask, g
from flask import request as flask_request

import vigil.flask
from conftest import TOR_IP
from vigil import Vigil
from vigil.starlette import VigilMiddleware

CLEAN_IP = "203.0.113.60"
HEADERS = {"User-Agent": "AdapterTest/1.0", "Accept-Language": "de-CH,de;q=0.9"}


@pytest.fixture
def risk(make_client) -> Vigil:
    return make_client(trusted_proxies=["loopback"]).event_paths(
        post={"login": "/login", "transfer": "/accounts/*/transfer"}
    )


def check_login_and_transfer(post: Callable[[str, Dict[str, str], Dict[str, str]], Dict], risk, server, errors) -> None:
    """The same story for every framework: a login decided on insights, a transfer tracked after the response."""
    user = f"{uuid.uuid4().hex[:10]}@example.com"
    answer = post("/login", {"user": user}, {"X-Forwarded-For": f"{CLEAN_IP}, {TOR_IP}"})
    # The chain is walked from the trusted peer outwards: TOR_IP is the first untrusted hop, so the client.
    assert answer == {"decision": "deny", "fail_open": False}, errors
    clean = post("/login", {"user": user}, {"X-Forwarded-For": CLEAN_IP})
    assert clean == {"decision": "allow", "fail_open": False}
    post("/accounts/42/transfer", {"user": user}, {"X-Forwarded-For": CLEAN_IP})
    assert risk.flush(timeout=30)

    stored = {e["name"] + ":" + str(e["ip"]): e for e in server.stored_events(identity=user)}
    # Tracked once each: the middleware does not repeat an event the view tracked itself.
    assert sorted(stored) == sorted([f"login:{TOR_IP}", f"login:{CLEAN_IP}", f"transfer:{CLEAN_IP}"])
    login = stored[f"login:{TOR_IP}"]
    assert "tor" in login["tags"] and login["userAgent"] == "AdapterTest/1.0"
    assert login["properties"]["accept_language"] == "de-CH,de;q=0.9"
    assert (login["properties"]["request_method"], login["properties"]["request_path"]) == ("POST", "/login")
    transfer = stored[f"transfer:{CLEAN_IP}"]
    assert transfer["properties"]["status_code"] == 200
    assert transfer["properties"]["request_path"] == "/accounts/42/transfer"
    assert errors == []


def test_django_middleware(risk, server, errors) -> None:
    if not settings.configured:
        settings.configure(
            ALLOWED_HOSTS=["*"],
            SECRET_KEY="vigil-tests",
            ROOT_URLCONF="django_app",
            MIDDLEWARE=["vigil.django.VigilMiddleware"],
        )
        django.setup()
    settings.VIGIL = risk
    client = DjangoClient()

    def post(path: str, body: Dict[str, str], headers: Dict[str, str]) -> Dict:
        return client.post(path, body, content_type="application/json", headers={**HEADERS, **headers}).json()

    check_login_and_transfer(post, risk, server, errors)
    # A forwarding header from an untrusted peer is anyone's to forge: the peer's address is used.
    user = f"{uuid.uuid4().hex[:10]}@example.com"
    DjangoClient(REMOTE_ADDR="198.51.100.77").post(
        "/login", {"user": user}, content_type="application/json", headers={"X-Forwarded-For": TOR_IP}
    )
    [forged] = server.stored_events(identity=user)
    assert forged["ip"] == "198.51.100.77" and "tor" not in forged["tags"]


def test_flask_extension(risk, server, errors) -> None:
    app = Flask(__name__)
    vigil.flask.init_app(app, risk)

    @app.post("/login")
    def login() -> Dict:
        insights = g.vigil.identify(flask_request.json["user"]).track_sync("login")
        return {"decision": "deny" if insights.has_tag("tor") else "allow", "fail_open": insights.fail_open}

    @app.post("/accounts/<account>/transfer")
    def transfer(account: str) -> Dict:
        g.vigil = g.vigil.identify(flask_request.json["user"])
        return {"ok": True}

    client = app.test_client()

    def post(path: str, body: Dict[str, str], headers: Dict[str, str]) -> Dict:
        return client.post(path, json=body, headers={**HEADERS, **headers}).get_json()

    check_login_and_transfer(post, risk, server, errors)


def test_fastapi_middleware_with_track_async(risk, server, errors) -> None:
    app = FastAPI()
    app.add_middleware(VigilMiddleware, vigil=risk)

    @app.post("/login")
    async def login(request: Request) -> Dict:
        user = (await request.json())["user"]
        insights = await request.state.vigil.identify(user).track_async("login")
        return {"decision": "deny" if insights.has_tag("tor") else "allow", "fail_open": insights.fail_open}

    @app.post("/accounts/{account}/transfer")
    async def transfer(account: str, request: Request) -> Dict:
        request.state.vigil = request.state.vigil.identify((await request.json())["user"])
        return {"ok": True}

    with TestClient(app, client=("127.0.0.1", 50000)) as client:

        def post(path: str, body: Dict[str, str], headers: Dict[str, str]) -> Dict:
            return client.post(path, json=body, headers={**HEADERS, **headers}).json()

        check_login_and_transfer(post, risk, server, errors)
