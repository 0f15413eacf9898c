"""The headless commands behind ``tussle`` (tui.cli parses the command line): resolve,
odds and roll (commands), the saves' commands (saves: check, export, import, backups...),
the roster's (roster), a scenario recorded into a campaign (record), the demo campaigns
and the benchmarks. The top of core: it may import anything in core, and nothing in core
imports it.
"""
