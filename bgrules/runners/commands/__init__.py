"""One module per ``bgrules`` command: what the command line (:mod:`bgrules.cli`) calls with the options it
parsed (a runner of :mod:`bgrules.runners` with the command's defaults, or the few steps the command is
made of) and the lines, table rows and summaries it prints of what came back. No module here knows a
game: a game's own pieces come through its descriptor or a runner (e.g. :mod:`bgrules.runners.factory`)."""
