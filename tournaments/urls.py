app_name = "tournaments"

urlpatterns: list = []
