"""API description documents (OpenAPI/Swagger, AsyncAPI) in a service's folder: its contract as
facts with evidence in the document, merged with what its code shows, disagreements as gaps."""
