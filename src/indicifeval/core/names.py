"""The file name every tool's folder shares, in a module that imports nothing, so that the
command line can name the files in its help without loading the file helpers."""

MANIFEST = "manifest.json"
