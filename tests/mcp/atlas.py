"""An MCP server written with the protocol's Python SDK (`mcp`, pinned in requirements.txt),
for the end-to-end tests (tests/e2e/mcp.test.mjs): two tools about countries, over Streamable
HTTP, with CORS open to any page (the way a server meant for browsers is set up).

    python atlas.py PORT [stateless|sessions] [cors|no-cors] [TOKEN]

`stateless` (the default) serves the 2026-07-28 protocol with no handshake; `sessions` the older
one, with `initialize` and `Mcp-Session-Id`. `no-cors` leaves the CORS headers out (a server a
page may not use); a TOKEN makes every request without `Authorization: Bearer TOKEN` a 401.
"""

import sys

import uvicorn
from mcp.server.mcpserver import MCPServer
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import JSONResponse

CAPITALS = {"france": "Paris", "japan": "Tokyo", "kenya": "Nairobi"}
POPULATIONS = {"paris": 2.1, "tokyo": 14.0, "nairobi": 4.4}

atlas = MCPServer("atlas")


@atlas.tool()
def capital(country: str) -> str:
    """The capital city of a country."""
    city = CAPITALS.get(country.strip().lower())
    if city is None:
        raise ValueError(f"no capital known for {country}")
    return city


@atlas.tool()
def population(city: str) -> str:
    """The population of a city, in millions of people."""
    people = POPULATIONS.get(city.strip().lower())
    if people is None:
        raise ValueError(f"no population known for {city}")
    return f"{people} million"


def bearer(token):
    """A check that every request but a CORS preflight carries the token."""

    async def check(request, call_next):
        if request.method != "OPTIONS" and request.headers.get("authorization") != f"Bearer {token}":
            return JSONResponse({"error": "unauthorized"}, status_code=401)
        return await call_next(request)

    return check


def main():
    port = int(sys.argv[1])
    mode, cors = (sys.argv[2:4] + ["stateless", "cors"][len(sys.argv[2:4]):])[:2]
    token = sys.argv[4] if len(sys.argv) > 4 else None
    app = atlas.streamable_http_app(stateless_http=mode == "stateless")
    if token:
        app.add_middleware(BaseHTTPMiddleware, dispatch=bearer(token))
    if cors == "cors":
        app.add_middleware(
            CORSMiddleware,
            allow_origins=["*"],
            allow_methods=["*"],
            allow_headers=["*"],
            expose_headers=["Mcp-Session-Id"],
        )
    print(f"atlas listening on {port}", flush=True)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


main()
