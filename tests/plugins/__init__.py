"""Rule systems written as outside plug-ins, to show a table can add its own (issue 12)."""
