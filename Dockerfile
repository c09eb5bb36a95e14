# The one image behind web, worker and beat (see docker-compose.yml and the Procfile).
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY . .
# Static files are collected (hashed, compressed) into the image; WhiteNoise serves them.
RUN SECRET_KEY=collectstatic-only DEBUG=0 python manage.py collectstatic --noinput \
    && useradd --system --home-dir /app topiary \
    && install -d -o topiary /var/lib/topiary-metrics

USER topiary
# Inside a container the server must listen beyond loopback.
ENV HOST=0.0.0.0 \
    PORT=8000
EXPOSE 8000
