"""Running magboard as an appliance: the configuration file, the systemd unit and the udev rule.

Everything here generates text; ``host.commands.service`` decides where it goes.
"""
