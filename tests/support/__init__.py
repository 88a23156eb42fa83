"""Plain helpers the tests import like any other module.

Fixtures never live here: the suite-wide ones are in tests/fixtures/ (loaded through
``pytest_plugins`` in tests/conftest.py) and a package's own in its conftest.
tests/test_layout.py keeps it that way.
"""
