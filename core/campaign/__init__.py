"""The campaign in memory: its log's words (log), how the log folds into a
roster and contests (state, runs), deciding a GM action into a log entry (actions), and
what follows a contest (aftermath, corrections, recap), with the generic halves of what a
rule system adds (its sheet, contest setup, roster files, quick rolls). Every contest
change goes through core.engine. It may import core.engine, core.rules, the shared leaves
and core.files (to check an entry would save); never core/saves/, core/cli/ or
core.bus, so it never touches a folder.
"""
