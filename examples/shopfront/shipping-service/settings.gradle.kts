rootProject.name = "shipping-service"
