from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.error_views import api_route_not_found
from config.health import healthz

# No two of these prefixes overlap, so their order only decides how many patterns a
# request is tried against: the API, which takes nearly every request, comes first.
# The catch-all under api/ is last: an unknown API path is a JSON 404 even with DEBUG on.
# The apps' routes are included by name: config imports no app.
urlpatterns = [
    path("api/v1/", include("api.urls")),
    path("", include("web.urls")),
    path("healthz", healthz, name="healthz"),
    # set_language: the footer's language switch posts here (a form, no script)
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file of its own (?script):
    # the Content-Security-Policy allows no inline script (config/csp.py).
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/swagger_ui.html"),
        name="api-docs",
    ),
    re_path(r"^api/", api_route_not_found),
]

handler400 = "config.error_views.bad_request"
handler403 = "config.error_views.permission_denied"
handler404 = "config.error_views.page_not_found"
handler500 = "config.error_views.server_error"
