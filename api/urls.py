from django.urls import path

from api import views
from api.endpoints import api

app_name = "tokens"

urlpatterns = [
    path("account/tokens/", views.tokens_page, name="tokens"),
    path("account/tokens/<int:token_id>/revoke/", views.token_revoke, name="revoke"),
]

api_urls = api.urls
