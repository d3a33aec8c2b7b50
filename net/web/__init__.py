"""The web table: the whole app in a browser tab (`serve --web PORT`), one process per tab as
over SSH, for players who have a browser and no SSH client."""
