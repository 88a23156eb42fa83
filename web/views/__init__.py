"""The site's pages, one module per audience; ``web.urls`` names their routes."""
