"""Values as JSON and JSON as files, knowing nothing of a campaign's meaning: the codec
(a saved value <-> tagged JSON, the one way into and out of the saves), the disk (atomic
writes, the campaign lock, the size and depth a file or entry may have) and the files a
user names (read within bounds, never waited on). It may import the shared leaves
(core.model, core.limits, core.errors, core.text) and, lazily, the rule registry
(core.rules) to decode a system's tags; never core/campaign/, core/saves/ or
core/cli/.
"""
