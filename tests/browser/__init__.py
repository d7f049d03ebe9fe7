# Every browser-test person's password: typed into the sign-up and sign-in forms
# (conftest.py) and given by the suite's own sign-in door (urls.py).
PASSWORD = "Card-table-2026!"
