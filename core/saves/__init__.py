"""Campaigns on disk: the saves folder and each campaign's files (store: the one module
that imports TinyDB), the log's segments read back lazily, snapshots and their checks,
replaying an entry, format upgrades (migrate), entries set aside, backups, `check`,
rename/archive/delete (manage), export and import (transfer, export_stream) and the
guard a headless writer passes. It may import core/campaign/, core/files/, core.engine,
core.rules and the shared leaves; never core/cli/ or core.bus.
"""
