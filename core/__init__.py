"""Tussle's headless core: rule systems, the event-sourced engine, dice, scenarios.

Nothing in this package imports Textual; ``tussle resolve`` runs on the core alone.
"""
