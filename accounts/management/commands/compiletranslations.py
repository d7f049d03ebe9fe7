"""Compile locale/*/LC_MESSAGES/*.po to .mo with polib.

Django's compilemessages needs GNU gettext's msgfmt, which a fresh machine
with only Python does not have; polib is pure Python.
"""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Compile the Persian and English translation catalogues (pure Python)."

    def handle(self, *args, **options):
        count = 0
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                po = polib.pofile(str(po_path))
                broken = [e.msgid for e in po if e.msgstr and not _placeholders_match(e)]
                if broken:
                    raise CommandError(f"{po_path}: placeholders differ in {broken[:3]}")
                po.save_as_mofile(str(po_path.with_suffix(".mo")))
                count += 1
                self.stdout.write(f"compiled {po_path} ({po.percent_translated()}% translated)")
        if not count:
            raise CommandError("no .po catalogue found")


def _placeholders_match(entry) -> bool:
    import re

    pattern = re.compile(r"%\(\w+\)[sd]|\{\w*\}")
    want = sorted(pattern.findall(entry.msgid))
    if entry.msgid_plural:
        return all(
            sorted(pattern.findall(s)) == sorted(pattern.findall(entry.msgid_plural))
            or sorted(pattern.findall(s)) == want
            for s in entry.msgstr_plural.values()
            if s
        )
    return sorted(pattern.findall(entry.msgstr)) == want
