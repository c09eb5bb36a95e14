"""Account pages: register, log in/out, change password, public profiles."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse

from accounts import selectors, services
from accounts.forms import BoundedPasswordChangeForm, LoginForm, RegistrationForm


def register(request):
    """Sign up, then arrive logged in on your new profile."""
    if request.user.is_authenticated:
        return redirect("home")
    form = RegistrationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_register(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            login(request, user, backend="accounts.backends.PlayerBackend")
            messages.success(request, f"Welcome to Topiary Online, {user.username}!")
            return redirect("accounts:profile", username=user.username)
    # A form shown again with its errors is a page like any other (200): a 400 would show
    # in the browser's console as a failed request.
    return render(request, "accounts/register.html", {"form": form})


class LoginView(auth_views.LoginView):
    form_class = LoginForm
    redirect_authenticated_user = True


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = BoundedPasswordChangeForm

    def get_success_url(self) -> str:
        messages.success(self.request, "Your password was changed.")
        return reverse("accounts:profile", args=[self.request.user.username])


def profile(request, username: str):
    """A player's public page; the other apps add their panels to it."""
    profile_user = selectors.user_by_username(username=username)
    if profile_user.username != username:
        return redirect("accounts:profile", username=profile_user.username, permanent=True)
    return render(request, "accounts/profile.html", {"profile_user": profile_user})
