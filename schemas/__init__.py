"""Request and response shapes (marshmallow 4) and card notation."""
