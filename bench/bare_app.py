"""The baseline of bench/flow.py: the fastest bare Bolt stack that only acks `/post-mortem`
(docs/platform-notes.md, ack latency).

`AsyncApp` behind the async Starlette adapter under uvicorn, built like bot/app.py (same client, same route,
same `uvicorn.run` settings) but with one listener that only calls `ack()`. `process_before_response` is
Bolt's default (False) unless `--process-before-response` is given.

Run: `python bench/bare_app.py --port N [--process-before-response]`; reads SLACK_SIGNING_SECRET,
SLACK_BOT_TOKEN and SLACK_API_URL from the environment, as `serve` does.
"""

from __future__ import annotations

import argparse
import os

import uvicorn
from slack_bolt.adapter.starlette.async_handler import AsyncSlackRequestHandler
from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_sdk.web.async_client import AsyncWebClient
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route


def create_bare_app(
    *, signing_secret: str, token: str, slack_api_url: str, process_before_response: bool = False
) -> Starlette:
    """A Starlette app serving a Bolt app whose only listener acks the slash command."""
    client = AsyncWebClient(token=token, base_url=slack_api_url)
    bolt = AsyncApp(client=client, signing_secret=signing_secret, process_before_response=process_before_response)

    async def ack_only(ack: AsyncAck) -> None:
        await ack()

    bolt.command("/post-mortem")(ack_only)
    handler = AsyncSlackRequestHandler(bolt)

    async def slack_events(request: Request) -> Response:
        return await handler.handle(request)

    return Starlette(routes=[Route("/slack/events", slack_events, methods=["POST"])])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--process-before-response", action="store_true")
    args = parser.parse_args()
    app = create_bare_app(
        signing_secret=os.environ["SLACK_SIGNING_SECRET"],
        token=os.environ["SLACK_BOT_TOKEN"],
        slack_api_url=os.environ["SLACK_API_URL"],
        process_before_response=args.process_before_response,
    )
    # What bot/run.py's `serve` runs: the same server settings, so only the app differs.
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="info", access_log=False)


if __name__ == "__main__":
    main()
