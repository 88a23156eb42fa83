FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY config ./config
COPY core ./core
COPY engine ./engine
COPY games ./games
COPY league ./league
RUN pip install --no-cache-dir .
COPY . .
RUN DEBUG=true python manage.py collectstatic --no-input
# the translations (no GNU gettext in the slim image: the pure-Python compiler)
RUN python scripts/msgfmt.py
EXPOSE 8000
CMD ["gunicorn", "-c", "python:config.gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
