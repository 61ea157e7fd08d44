"""A minimal Django project for the adapter tests (settings are configured by the test)."""

from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.urls import path


def login(request: HttpRequest) -> JsonResponse:
    user = json.loads(request.body)["user"]
    insights = request.vigil.identify(user).track_sync("login")  # type: ignore[attr-defined]
    decision = "deny" if insights.risk_score > 0.8 or insights.has_tag("tor") else "allow"
    return JsonResponse({"decision": decision, "fail_open": insights.fail_open})


def transfer(request: HttpRequest, account: str) -> JsonResponse:
    # Stored back so the event the middleware tracks after the response carries the identity.
    request.vigil = request.vigil.identify(json.loads(request.body)["user"])  # type: ignore[attr-defined]
    return JsonResponse({"ok": True, "account": account})


urlpatterns = [path("login", login), path("accounts/<str:account>/transfer", transfer)]
