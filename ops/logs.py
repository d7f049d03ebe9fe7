"""One JSON line per log event in production (issue 39).

``logging_config(json_lines)`` is the project's LOGGING: in production each
event is one line of JSON with its time, level, logger and message, and,
where known, the request or socket id, the user, the room and the match
(``ops.context``); the message, the ``extra`` fields and the traceback pass
through ``ops.scrub`` first. The embedded site keeps plain text.
"""

from __future__ import annotations

import logging
import traceback
from datetime import UTC, datetime

import orjson

from . import context, scrub

# LogRecord's own attributes: anything else on a record came from ``extra=``.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        try:
            message = str(record.msg)
            if record.args:
                message = message % scrub.args(record.args)
        except Exception:  # noqa: BLE001 - a bad format string still gives a line
            message = str(record.msg)
        line = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": scrub.text(message),
        }
        ctx = context.current()
        if ctx is not None:
            for key in ("request_id", "socket_id", "room", "match"):
                if ctx.get(key) is not None:
                    line[key] = ctx[key]
            uid = context.user_id(ctx)
            if uid is not None:
                line["user"] = uid
        request = getattr(record, "request", None)
        if request is not None and "user" not in line:
            uid = context.user_id({"request": request})
            if uid is not None:
                line["user"] = uid
        for key, val in record.__dict__.items():
            if key in _STANDARD or key in line or key == "request" or key.startswith("_"):
                continue
            line[key] = scrub.REDACTED if scrub.secret_name(key) else scrub.value(val)
        if record.exc_info:
            line["exc"] = scrub.text("".join(traceback.format_exception(*record.exc_info)))
        elif record.exc_text:
            line["exc"] = scrub.text(record.exc_text)
        return orjson.dumps(line, default=str).decode()


def logging_config(json_lines: bool, level: str = "WARNING") -> dict:
    """The LOGGING setting: JSON lines on stderr in production, plain text otherwise."""
    formatter = (
        {"()": "ops.logs.JsonFormatter"} if json_lines else {"format": "%(levelname)s %(name)s: %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "main"}},
        "root": {"handlers": ["console"], "level": level},
    }


def keep_django_logging(loglevel=None, **kwargs) -> None:
    """Celery's ``setup_logging`` receiver: the worker and the beat log as the
    site does (JSON lines in production) instead of Celery's own format, at
    the level given on the command line (``-l info``) when there is one."""
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel if isinstance(loglevel, int) else str(loglevel).upper())
