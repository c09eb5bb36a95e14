# The one image behind web, worker and beat (see docker-compose.yml and the Procfile).

# The bots' and the analysis's compiled hot loops (docs/decisions/0018, 0022) need gcc, which
# the slim image lacks: build them in a stage of their own and copy only the modules.
FROM python:3.11-slim AS compiled
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt
COPY engine ./engine
RUN python -m engine.topiary.build_compiled

FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY . .
COPY --from=compiled /build/engine/topiary/_compiled*.so engine/topiary/
COPY --from=compiled /build/engine/wizards_garden/_compiled*.so engine/wizards_garden/
# Static files are collected (hashed, compressed) into the image; WhiteNoise serves them.
RUN SECRET_KEY=collectstatic-only DEBUG=0 python manage.py collectstatic --noinput \
    && useradd --system --home-dir /app topiary \
    && install -d -o topiary /var/lib/topiary-metrics

USER topiary
# Inside a container the server must listen beyond loopback.
ENV HOST=0.0.0.0 \
    PORT=8000
EXPOSE 8000
