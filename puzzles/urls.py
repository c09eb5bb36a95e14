app_name = "puzzles"

urlpatterns: list = []
