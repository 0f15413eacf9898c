"""One screen per mode: campaigns, roster, contest setup, the contest itself, help."""
