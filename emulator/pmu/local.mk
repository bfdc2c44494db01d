# PMU model sources (owned by the PMU model work).
