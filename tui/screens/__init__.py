"""The app's screens: menu, lobby, game, hot-seat handoff, results, rules, settings."""
