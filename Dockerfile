# One image for the bot (serve) and the worker; docker-compose.yml picks the command.
# Runtime dependencies come from requirements.lock (exact versions, checked by their hashes); the demo's
# and the tests' tools (the `demo` and `dev` extras) are not installed.
FROM python:3.11-slim
WORKDIR /app
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes -r requirements.lock
COPY pyproject.toml README.md ./
COPY bot bot
COPY handlers handlers
COPY workers workers
COPY renderers renderers
COPY postmortem postmortem
COPY rules rules
COPY sessions sessions
COPY emulators emulators
RUN pip install --no-cache-dir --no-deps . && useradd --create-home postmortem
# glibc otherwise raises its mmap threshold after the first large free, and request bodies freed later stay
# in the heap: with it fixed at 128 kB, what a burst of large bodies took goes back to the system.
ENV MALLOC_MMAP_THRESHOLD_=131072
USER postmortem
EXPOSE 3000
CMD ["postmortem-bot", "serve"]
