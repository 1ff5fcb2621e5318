# One image for the bot (serve) and the worker; docker-compose.yml picks the command.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot bot
COPY handlers handlers
COPY workers workers
COPY renderers renderers
COPY postmortem postmortem
COPY emulators emulators
RUN pip install --no-cache-dir . && useradd --create-home postmortem
USER postmortem
EXPOSE 3000
CMD ["postmortem-bot", "serve"]
