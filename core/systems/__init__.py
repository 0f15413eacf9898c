"""The rule systems that ship with Tussle, one package each (found through the registry,
``core.rules``; a system from another package is found the same way)."""
