from tests.games.conftest import ann, bob, make_user, owner  # noqa: F401  (shared user fixtures)
