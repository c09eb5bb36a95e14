"""The kit: what every app of the site uses and no app owns.

Database threads for sockets, the durable task policy, the wire format, logs, metric
counters, the channel layer and its Redis line, the lean socket consumer, request limits.
It sits below every app (as ``django.utils`` and ``django.core`` sit below
``django.contrib``) and imports none of them, nor the project package ``topiary_site``
above them; an app adds to it (a metric collector, a ``/status.json`` entry) from its
``AppConfig.ready`` (tests/site/test_import_rules.py).
"""
