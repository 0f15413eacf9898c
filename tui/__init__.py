"""Tussle's Textual dashboard: panes post messages, the app drives the core engine."""
