"""``python -m bgrules.cli``: the ``bgrules`` command."""

from bgrules.cli import main

if __name__ == "__main__":
    main()
