"""Board builds as data: loading and checking board files, sensor models, firmware config, documents.

``load_board(id or path)`` gives a checked ``BoardSpec``; ``SensorModel`` turns
a position's objects into expected readings and a firmware snapshot into
actual ones; ``firmware_config`` makes the Pico's board_config.json.
"""
