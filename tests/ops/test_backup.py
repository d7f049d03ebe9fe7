"""Backups (issue 39): scripts/backup.sh dumps a database with finished and
live matches, scripts/restore.sh restores it into a new database, and every
table (matches, the move log, rounds, fair deal records, the ledger, users,
rooms...) and every sequence is found equal; the retention count holds, and
the site's files travel with the dump."""

from __future__ import annotations

import os
import subprocess
import tarfile
import uuid
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from games.models import Match, Move
from leaderboard.models import LedgerEntry
from tests.replays.conftest import play_out, start_match

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)


def url(name: str) -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def tables_and_sequences(dsn: str) -> dict[str, tuple]:
    """Each public table's row count and a digest of all its rows; each sequence's position."""
    found = {}
    with psycopg.connect(dsn) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1"
            )
        ]
        for table in tables:
            count, digest = conn.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \"{table}\" t"
            ).fetchone()
            found[table] = (count, digest)
        for (seq,) in conn.execute(
            "SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = 'public'"
        ):
            found[f"seq:{seq}"] = conn.execute(f'SELECT last_value, is_called FROM "{seq}"').fetchone()
    return found


@pytest.fixture
def fresh_database():
    name = f"{connection.settings_dict['NAME']}_restore_{uuid.uuid4().hex[:8]}"
    admin = url("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield url(name)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(script: str, *args, env=None) -> str:
    out = subprocess.run(
        ["bash", str(ROOT / "scripts" / script), *args],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.strip()


def test_a_backup_restores_every_match_move_and_ledger_entry(make_user, settings, tmp_path, fresh_database):
    settings.TABLE = {**settings.TABLE, "BOT_DELAY": 0, "ROUND_PAUSE": 0}
    settings.DEADLINES = "inprocess"
    people = [make_user(f"bk{i}") for i in range(1, 9)]
    finished = [
        play_out(start_match("hokm4", people[0], people[1:4])),
        play_out(start_match("hokm2", people[4], people[5:6])),
    ]
    live = play_out(start_match("hokm4", people[4], people[5:8]), stop_after=12)
    assert all(m.status == Match.Status.FINISHED for m in finished)
    assert live.status == Match.Status.ACTIVE and live.version >= 12
    assert LedgerEntry.objects.count() >= 6 and Move.objects.filter(match=live).count() == live.version

    secret = tmp_path / "site" / "secret_key"
    secret.parent.mkdir()
    secret.write_text("the-site-secret\n")
    before = tables_and_sequences(url(connection.settings_dict["NAME"]))
    dump = Path(
        run(
            "backup.sh",
            str(tmp_path / "backups"),
            env={"DATABASE_URL": url(connection.settings_dict["NAME"]), "BACKUP_FILES": str(secret)},
        )
    )
    assert dump.is_file() and dump.name.startswith("takhteh-") and dump.suffix == ".dump"
    assert dump.read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format

    restored_files = tmp_path / "restored"
    run("restore.sh", str(dump), fresh_database, env={"RESTORE_FILES_TO": str(restored_files)})
    after = tables_and_sequences(fresh_database)
    assert set(after) == set(before)
    for name in ("games_match", "games_move", "games_round", "games_dealrecord", "leaderboard_ledgerentry"):
        assert before[name][0] > 0, name
    assert after == before
    assert (restored_files / str(secret).lstrip("/")).read_text() == "the-site-secret\n"

    # the live match reads back whole: its state and its move log
    with psycopg.connect(fresh_database) as conn:
        version, status = conn.execute(
            "SELECT version, status FROM games_match WHERE id = %s", [live.pk]
        ).fetchone()
        seqs = [
            r[0]
            for r in conn.execute("SELECT seq FROM games_move WHERE match_id = %s ORDER BY seq", [live.pk])
        ]
    assert (version, status) == (live.version, "active") and seqs == list(range(1, live.version + 1))


def test_the_retention_count_keeps_the_newest_backups(tmp_path):
    folder = tmp_path / "backups"
    env = {"DATABASE_URL": url(connection.settings_dict["NAME"]), "BACKUP_KEEP": "2", "BACKUP_FILES": ""}
    made = [run("backup.sh", str(folder), env=env) for _ in range(3)]
    assert sorted(p.name for p in folder.iterdir()) == sorted(Path(p).name for p in made[1:])
    bad = subprocess.run(
        ["bash", str(ROOT / "scripts" / "backup.sh"), str(folder)],
        env={**os.environ, **env, "BACKUP_KEEP": "0"},
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and len(list(folder.iterdir())) == 2


def test_a_failed_dump_leaves_no_backup(tmp_path):
    folder = tmp_path / "backups"
    bad = subprocess.run(
        ["bash", str(ROOT / "scripts" / "backup.sh"), str(folder)],
        env={**os.environ, "DATABASE_URL": url("no_such_database_here")},
        capture_output=True,
        text=True,
    )
    assert bad.returncode != 0
    assert list(folder.iterdir()) == []


def test_the_backup_files_are_a_tarball_beside_the_dump(tmp_path):
    secret = tmp_path / "secret_key"
    secret.write_text("k")
    dump = run(
        "backup.sh",
        str(tmp_path / "b"),
        env={"DATABASE_URL": url(connection.settings_dict["NAME"]), "BACKUP_FILES": str(secret)},
    )
    with tarfile.open(dump.removesuffix(".dump") + ".files.tar.gz") as tar:
        assert tar.getnames() == [str(secret).lstrip("/")]
