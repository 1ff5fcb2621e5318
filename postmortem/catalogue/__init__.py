"""The bot's sentences in English and Japanese, one module a stage of the flow; postmortem/messages.py merges them."""
