app_name = "replays"
urlpatterns = []
