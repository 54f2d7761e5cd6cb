"""One module per `latmon` subcommand; each defines `command`, registered in latmon.cli."""
