from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.health import healthz
from league.views import home

# No two of these prefixes overlap, so their order only decides how many patterns a
# request is tried against: the API, which takes nearly every request, comes first.
urlpatterns = [
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("league.urls")),
    path("", home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
