"""What the ``bgrules`` commands compute, as functions that return data (dicts, rows, lines of text): the
command line (:mod:`bgrules.cli`) parses the options, calls one of them and prints what it returns. The
checks, campaigns and searches they run are :mod:`bgrules.core`'s; a game's own pieces come from its
package (e.g. :mod:`bgrules.mechanica.factory_file`)."""
