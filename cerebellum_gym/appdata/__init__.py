"""App content shared by the simulator and the tasks (pages, texts), with no behaviour of its own.

It sits beside ``core/`` at the bottom of the layers: the simulator shows it, tasks set it up and
judge by it, and neither has to import the other.
"""
