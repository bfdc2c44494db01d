# Core model sources (owned by the core model work).
