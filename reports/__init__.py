"""Strategy reports: figures and one self-contained HTML file from analysis results."""
