"""One widget per pane. Widgets only show what they are given and post messages up."""
